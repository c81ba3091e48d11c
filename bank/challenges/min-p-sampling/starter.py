import torch


def sample(logits: torch.Tensor, u: torch.Tensor, temperature: float = 1.0, top_k: int = 0,
           min_p: float = 0.0) -> tuple[torch.Tensor, torch.Tensor]:
    raise NotImplementedError
