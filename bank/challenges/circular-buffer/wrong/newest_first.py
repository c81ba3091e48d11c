# expect: Wrong Answer
import torch


class RingBuffer:
    def __init__(self, capacity, feature_shape, dtype=torch.float32):
        self.data = torch.zeros((capacity, *feature_shape), dtype=dtype)
        self.capacity, self.head, self.count = capacity, 0, 0

    def push(self, batch):
        for row in batch[-self.capacity:] if batch.shape[0] > self.capacity else batch:
            self.data[self.head] = row
            self.head = (self.head + 1) % self.capacity
        self.count += batch.shape[0]

    def latest(self):
        n = min(self.count, self.capacity)
        return self.data[:n]  # storage order, not oldest-first once the ring has wrapped

    def __len__(self):
        return min(self.count, self.capacity)
