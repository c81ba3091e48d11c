import torch


class LengthBucketSampler:
    def __init__(self, lengths: list[int], batch_size: int, seed: int = 0, bucket_factor: int = 8):
        raise NotImplementedError

    def set_epoch(self, epoch: int) -> None:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    def __iter__(self):
        """Yield lists of dataset indices, one list per batch."""
        raise NotImplementedError
