import torch


class Adam:
    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0):
        self.params = list(params)
        raise NotImplementedError

    @torch.no_grad()
    def step(self) -> None:
        raise NotImplementedError


class AdamW(Adam):
    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2):
        raise NotImplementedError

    @torch.no_grad()
    def step(self) -> None:
        raise NotImplementedError
