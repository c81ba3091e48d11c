import torch


def switch_moe(x: torch.Tensor, router_weight: torch.Tensor, expert_weight: torch.Tensor,
               capacity_factor: float) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """x (N, D), router_weight (E, D), expert_weight (E, D, D).

    Returns (y (N, D), aux_loss (0-dim), expert_index (N,) int64 with -1 for dropped tokens).
    """
    raise NotImplementedError
