# expect: Wrong Answer
# runs out of blocks half-way through an append: the blocks taken so far are not given back
import math

import torch


class PagedKVCache:
    def __init__(self, num_blocks, block_size, num_heads, head_dim, dtype=torch.float64):
        self.block_size = block_size
        self.k_cache = torch.zeros(num_blocks, block_size, num_heads, head_dim, dtype=dtype)
        self.v_cache = torch.zeros_like(self.k_cache)
        self.free_blocks = set(range(num_blocks))
        self.tables, self.lens = {}, {}

    def num_free_blocks(self):
        return len(self.free_blocks)

    def block_table(self, seq_id):
        return list(self.tables[seq_id])

    def seq_len(self, seq_id):
        return self.lens[seq_id]

    def _where(self, seq_id, start, stop):
        pos = torch.arange(start, stop)
        table = torch.tensor(self.tables[seq_id], dtype=torch.long)
        return table[pos // self.block_size], pos % self.block_size  # physical block, slot

    def append(self, seq_id, k, v):
        table, n0 = self.tables.get(seq_id, []), self.lens.get(seq_id, 0)
        n1 = n0 + k.shape[0]
        need = -(-n1 // self.block_size) - len(table)  # ceil(n1 / B) blocks in all, minus those held
        self.tables[seq_id] = table
        for _ in range(need):  # takes blocks one by one and fails half-way: the taken ones leak
            if not self.free_blocks:
                raise RuntimeError("out of KV-cache blocks")
            b = min(self.free_blocks)
            self.free_blocks.remove(b)
            table.append(b)
        self.lens[seq_id] = n1
        blocks, slots = self._where(seq_id, n0, n1)
        self.k_cache[blocks, slots] = k
        self.v_cache[blocks, slots] = v

    def gather(self, seq_id):
        blocks, slots = self._where(seq_id, 0, self.lens[seq_id])
        return self.k_cache[blocks, slots], self.v_cache[blocks, slots]  # (L, H, D) each

    def free(self, seq_id):
        self.free_blocks |= set(self.tables.pop(seq_id))
        del self.lens[seq_id]


def decode_attention(cache, seq_ids, q):
    out = []
    for b, sid in enumerate(seq_ids):
        k, v = cache.gather(sid)  # only this sequence's L tokens: the unused tail of its last block is never read
        scores = torch.einsum("hd,lhd->hl", q[b], k) / math.sqrt(q.shape[-1])
        out.append(torch.einsum("hl,lhd->hd", scores.softmax(dim=-1), v))
    return torch.stack(out)  # (B, H, D)
