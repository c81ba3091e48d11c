import torch


def speculative_accept(draft_tokens: torch.Tensor, q: torch.Tensor, p: torch.Tensor, u_accept: torch.Tensor,
                       u_sample: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    raise NotImplementedError
