#include <stddef.h>

struct vector {
  double x;
  double y;
};

double dot(struct vector a, struct vector b) {
  return a.x * b.x + a.y * b.y;
}

int main(void) {
  struct vector v = {1.0, 2.0};
  int broken = v;
  return (int)dot(v, v) + broken;
}
