import torch


def mixup(x: torch.Tensor, y: torch.Tensor, lam: float, perm: torch.Tensor, num_classes: int):
    """Returns (mixed images (B, C, H, W), soft targets (B, num_classes))."""
    raise NotImplementedError


def cutmix(x: torch.Tensor, y: torch.Tensor, box: tuple, perm: torch.Tensor, num_classes: int):
    """box = (top, left, height, width). Returns (mixed images, soft targets, lam as a float)."""
    raise NotImplementedError
