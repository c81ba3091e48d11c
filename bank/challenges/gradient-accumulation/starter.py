import torch


def train_step(model, optimizer, loss_fn, x, y, micro_batch_size: int) -> float:
    """One optimizer step on the batch (x, y), processed in micro-batches of at most micro_batch_size
    rows, equal to a single step on loss_fn(model(x), y). Returns that full-batch loss."""
    raise NotImplementedError
