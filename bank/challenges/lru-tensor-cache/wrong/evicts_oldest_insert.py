# expect: Wrong Answer
class LRUCache:
    """FIFO, not LRU: a get does not refresh recency."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.data = {}

    def get(self, key):
        return self.data.get(key)

    def put(self, key, value):
        self.data.pop(key, None)
        self.data[key] = value
        if len(self.data) > self.capacity:
            del self.data[next(iter(self.data))]

    def keys(self):
        return list(self.data)
