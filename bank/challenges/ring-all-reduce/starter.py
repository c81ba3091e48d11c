from collections.abc import Callable

import torch


def ring_all_reduce(tensors: list[torch.Tensor],
                    send: Callable[[int, int, torch.Tensor], torch.Tensor]) -> tuple[list[torch.Tensor], list[int]]:
    """Sum-all-reduce tensors[r] (rank r's tensor) over a ring of W = len(tensors) ranks.

    Returns (results, sent): results[r] is rank r's final tensor, sent[r] the number of
    elements rank r sent in total.
    """
    raise NotImplementedError
