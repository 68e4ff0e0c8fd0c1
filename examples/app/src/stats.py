def mean(values: list[float]) -> float:
    return sum(values) / len(values)


class Summary:
    def __init__(self, total: float) -> None:
        self.total = total


result: int = mean([1.0, 2.0])
