import torch


def apply_penalties(logits: torch.Tensor, history: torch.Tensor, repetition_penalty: float = 1.0,
                    frequency_penalty: float = 0.0, presence_penalty: float = 0.0) -> torch.Tensor:
    raise NotImplementedError
