import torch


def collate(batch, pad_id: int = 0, max_length: int | None = None, sort: bool = False) -> dict:
    """batch: a list of (token_ids, label) with token_ids a 1-D int64 tensor and label an int.
    Returns {"input_ids", "attention_mask", "lengths", "labels"} (+ "perm" when sort=True)."""
    raise NotImplementedError
