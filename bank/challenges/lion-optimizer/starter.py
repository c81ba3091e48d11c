import torch


class Lion:
    def __init__(self, params, lr: float = 1e-4, betas=(0.9, 0.99), weight_decay: float = 0.0):
        self.params = list(params)
        raise NotImplementedError

    @torch.no_grad()
    def step(self) -> None:
        raise NotImplementedError
