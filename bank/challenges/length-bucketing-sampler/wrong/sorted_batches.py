# expect: Wrong Answer
import math


class LengthBucketSampler:
    def __init__(self, lengths, batch_size, seed=0, bucket_factor=8):
        self.lengths, self.batch_size = list(lengths), batch_size

    def set_epoch(self, epoch):
        pass

    def __len__(self):
        return math.ceil(len(self.lengths) / self.batch_size)

    def __iter__(self):
        order = sorted(range(len(self.lengths)), key=lambda i: self.lengths[i])  # efficient, but never random
        for j in range(0, len(order), self.batch_size):
            yield order[j:j + self.batch_size]
