import torch


class GradScaler:
    def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000):
        raise NotImplementedError

    def scale(self, loss: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def unscale_(self, optimizer) -> None:
        raise NotImplementedError

    def step(self, optimizer) -> None:
        raise NotImplementedError

    def update(self) -> None:
        raise NotImplementedError

    def get_scale(self) -> float:
        raise NotImplementedError
