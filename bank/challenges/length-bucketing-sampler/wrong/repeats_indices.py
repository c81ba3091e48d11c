# expect: Wrong Answer
import math

import torch


class LengthBucketSampler:
    def __init__(self, lengths, batch_size, seed=0, bucket_factor=8):
        self.lengths, self.batch_size, self.seed = list(lengths), batch_size, seed
        self.pool = batch_size * bucket_factor
        self.epoch = 0

    def set_epoch(self, epoch):
        self.epoch = epoch

    def __len__(self):
        return math.ceil(len(self.lengths) / self.batch_size)

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed + self.epoch)
        order = torch.randperm(len(self.lengths), generator=g).tolist()
        short = -len(order) % self.batch_size
        order += order[:short]  # tops up the last batch by repeating indices from the start
        batches = []
        for start in range(0, len(order), self.pool):
            pool = sorted(order[start:start + self.pool], key=lambda i: self.lengths[i])
            batches += [pool[j:j + self.batch_size] for j in range(0, len(pool), self.batch_size)]
        for k in torch.randperm(len(batches), generator=g).tolist():
            yield batches[k]
