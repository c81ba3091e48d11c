# expect: Wrong Answer
# keeps one growing contiguous tensor per sequence and only pretends to use blocks: k_cache stays empty
import math

import torch


class PagedKVCache:
    def __init__(self, num_blocks, block_size, num_heads, head_dim, dtype=torch.float64):
        self.block_size = block_size
        self.k_cache = torch.zeros(num_blocks, block_size, num_heads, head_dim, dtype=dtype)
        self.v_cache = torch.zeros_like(self.k_cache)
        self.free_blocks = list(range(num_blocks))
        self.tables, self.k, self.v = {}, {}, {}

    def num_free_blocks(self):
        return len(self.free_blocks)

    def block_table(self, seq_id):
        return list(self.tables[seq_id])

    def seq_len(self, seq_id):
        return self.k[seq_id].shape[0]

    def append(self, seq_id, k, v):
        n1 = (self.k[seq_id].shape[0] if seq_id in self.k else 0) + k.shape[0]
        table = self.tables.get(seq_id, [])
        need = -(-n1 // self.block_size) - len(table)
        if need > len(self.free_blocks):
            raise RuntimeError("out of KV-cache blocks")
        self.free_blocks.sort()
        self.tables[seq_id] = table + self.free_blocks[:need]
        del self.free_blocks[:need]
        self.k[seq_id] = torch.cat([self.k[seq_id], k]) if seq_id in self.k else k.clone()
        self.v[seq_id] = torch.cat([self.v[seq_id], v]) if seq_id in self.v else v.clone()

    def gather(self, seq_id):
        return self.k[seq_id], self.v[seq_id]

    def free(self, seq_id):
        self.free_blocks += self.tables.pop(seq_id)
        del self.k[seq_id], self.v[seq_id]


def decode_attention(cache, seq_ids, q):
    out = []
    for b, sid in enumerate(seq_ids):
        k, v = cache.gather(sid)
        scores = torch.einsum("hd,lhd->hl", q[b], k) / math.sqrt(q.shape[-1])
        out.append(torch.einsum("hl,lhd->hd", scores.softmax(dim=-1), v))
    return torch.stack(out)
