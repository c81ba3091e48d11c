import copy

import torch
from torch import nn


class ModelEMA:
    def __init__(self, model: nn.Module, decay: float = 0.999):
        raise NotImplementedError

    def update(self, model: nn.Module) -> None:
        raise NotImplementedError
