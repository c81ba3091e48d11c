# expect: Wrong Answer
import math

import torch


class LengthBucketSampler:
    def __init__(self, lengths, batch_size, seed=0, bucket_factor=8):
        self.lengths, self.batch_size, self.seed = list(lengths), batch_size, seed
        self.pool = batch_size * bucket_factor  # a multiple of batch_size: only the very last batch can be short
        self.epoch = 0

    def set_epoch(self, epoch):
        self.epoch = epoch

    def __len__(self):
        return math.ceil(len(self.lengths) / self.batch_size)  # the last partial batch is kept

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed)  # set_epoch has no effect: every epoch is the same;  # never the global RNG
        order = torch.randperm(len(self.lengths), generator=g).tolist()
        batches = []
        for start in range(0, len(order), self.pool):
            # sort a random pool by length, then cut it: neighbours in a batch have similar lengths
            pool = sorted(order[start:start + self.pool], key=lambda i: self.lengths[i])
            batches += [pool[j:j + self.batch_size] for j in range(0, len(pool), self.batch_size)]
        for k in torch.randperm(len(batches), generator=g).tolist():  # so long batches are not all at the end
            yield batches[k]
