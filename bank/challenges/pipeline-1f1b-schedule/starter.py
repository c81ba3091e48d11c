def schedule_1f1b(num_stages: int, num_microbatches: int) -> list[list[tuple[str, int]]]:
    """schedule[s]: stage s's operations in order, ("F", m) or ("B", m)."""
    raise NotImplementedError


def peak_activations(schedule: list[list[tuple[str, int]]]) -> list[int]:
    """Per stage: the largest number of micro-batches whose activations are held at once."""
    raise NotImplementedError


def makespan(schedule: list[list[tuple[str, int]]], t_f: float, t_b: float) -> float:
    """Time at which the last operation of any stage finishes."""
    raise NotImplementedError
