# expect: Rule Violation
import torch


class RingBuffer:
    def __init__(self, capacity, feature_shape, dtype=torch.float32):
        self.capacity = capacity
        self.data = torch.zeros((0, *feature_shape), dtype=dtype)

    def push(self, batch):
        self.data = torch.cat([self.data, batch.to(self.data.dtype)])[-self.capacity:]

    def latest(self):
        return self.data

    def __len__(self):
        return self.data.shape[0]
