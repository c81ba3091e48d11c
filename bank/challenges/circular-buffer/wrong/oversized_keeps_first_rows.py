# expect: Wrong Answer
import torch


class RingBuffer:
    def __init__(self, capacity, feature_shape, dtype=torch.float32):
        self.data = torch.zeros((capacity, *feature_shape), dtype=dtype)
        self.capacity = capacity
        self.head = 0  # next row to write
        self.count = 0

    def push(self, batch):
        b = batch.shape[0]
        if b == 0:
            return
        if b > self.capacity:  # only the last `capacity` rows survive
            self.head = (self.head + b - self.capacity) % self.capacity
            self.count += b - self.capacity
            batch = batch[:self.capacity]  # keeps the OLDEST rows of an oversized batch
            b = self.capacity
        idx = (self.head + torch.arange(b)) % self.capacity
        self.data.index_copy_(0, idx, batch.to(self.data.dtype))
        self.head = (self.head + b) % self.capacity
        self.count += b

    def latest(self):
        n = min(self.count, self.capacity)
        start = (self.head - n) % self.capacity
        return self.data[(start + torch.arange(n)) % self.capacity]

    def __len__(self):
        return min(self.count, self.capacity)
