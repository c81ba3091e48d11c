from collections.abc import Callable

import torch


def assign_buckets(named_params: list[tuple[str, torch.Tensor]], bucket_cap_bytes: int) -> list[list[str]]:
    """Parameter names per bucket, buckets in the order they are filled."""
    raise NotImplementedError


def bucketed_all_reduce(named_params: list[tuple[str, torch.Tensor]], rank_grads: list[dict[str, torch.Tensor]],
                        bucket_cap_bytes: int,
                        all_reduce: Callable[[list[torch.Tensor]], torch.Tensor],
                        ) -> tuple[list[list[str]], dict[str, torch.Tensor]]:
    """(buckets, averaged gradient per trainable parameter name)."""
    raise NotImplementedError
