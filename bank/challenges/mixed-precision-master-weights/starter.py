import torch


class MixedPrecisionSGD:
    def __init__(self, params: list[torch.Tensor], lr: float, momentum: float = 0.0, init_scale: float = 2.0**16,
                 growth_factor: float = 2.0, backoff_factor: float = 0.5, growth_interval: int = 2000):
        raise NotImplementedError

    def scale_loss(self, loss: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def step(self) -> bool:
        """Unscale, check, update the masters and copy them down; adapt the scale. True if the step was taken."""
        raise NotImplementedError

    def get_scale(self) -> float:
        raise NotImplementedError

    def master_params(self) -> list[torch.Tensor]:
        raise NotImplementedError
