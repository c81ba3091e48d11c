# expect: Wrong Answer
import torch


class RingBuffer:
    def __init__(self, capacity, feature_shape, dtype=torch.float32):
        self.data = torch.zeros((capacity, *feature_shape), dtype=dtype)
        self.capacity = capacity
        self.head = 0
        self.count = 0

    def push(self, batch):
        b = batch.shape[0]
        if b > self.capacity:
            self.head = (self.head + b - self.capacity) % self.capacity
            self.count += b - self.capacity
            batch = batch[-self.capacity:]
            b = self.capacity
        room = self.capacity - self.head - 1  # off by one: the last slot before the end is never used
        if b <= room:
            self.data[self.head:self.head + b] = batch
        else:
            self.data[self.head:self.head + room] = batch[:room]
            self.data[:b - room] = batch[room:]
        self.head = (self.head + b) % self.capacity
        self.count += b

    def latest(self):
        n = min(self.count, self.capacity)
        start = (self.head - n) % self.capacity
        return self.data[(start + torch.arange(n)) % self.capacity]

    def __len__(self):
        return min(self.count, self.capacity)
