import torch


def box_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    raise NotImplementedError


def nms(boxes: torch.Tensor, scores: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    raise NotImplementedError
