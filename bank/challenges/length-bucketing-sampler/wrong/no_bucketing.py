# expect: Wrong Answer
import math

import torch


class LengthBucketSampler:
    def __init__(self, lengths, batch_size, seed=0, bucket_factor=8):
        self.lengths, self.batch_size, self.seed = list(lengths), batch_size, seed
        self.epoch = 0

    def set_epoch(self, epoch):
        self.epoch = epoch

    def __len__(self):
        return math.ceil(len(self.lengths) / self.batch_size)

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed + self.epoch)
        order = torch.randperm(len(self.lengths), generator=g).tolist()  # random batches: lots of padding
        for j in range(0, len(order), self.batch_size):
            yield order[j:j + self.batch_size]
