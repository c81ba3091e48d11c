from torch import nn


def layerwise_param_groups(model: nn.Module, lr: float, decay: float, weight_decay: float) -> list[dict]:
    """Param groups for torch.optim: each {"params": [...], "names": [...], "lr": float, "weight_decay": float}."""
    raise NotImplementedError
