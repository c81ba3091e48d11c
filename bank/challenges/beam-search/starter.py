import torch


def beam_search(log_start: torch.Tensor, log_trans: torch.Tensor, eos: int, beam_size: int, max_len: int,
                alpha: float = 0.0, n_best: int | None = None) -> tuple[list[list[int]], torch.Tensor, torch.Tensor]:
    raise NotImplementedError
