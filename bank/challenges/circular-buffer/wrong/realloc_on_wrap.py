# expect: Wrong Answer
import torch


class RingBuffer:
    def __init__(self, capacity, feature_shape, dtype=torch.float32):
        self.data = torch.zeros((capacity, *feature_shape), dtype=dtype)
        self.capacity, self.count = capacity, 0

    def push(self, batch):
        for row in batch:
            if self.count >= self.capacity:
                self.data = self.data.roll(-1, dims=0).clone()  # a new tensor on every overflowing push
                self.data[-1] = row
            else:
                self.data[self.count] = row
            self.count += 1

    def latest(self):
        return self.data[:min(self.count, self.capacity)]

    def __len__(self):
        return min(self.count, self.capacity)
