import torch


def _via_table(cache, sid, block_size):
    """Read a sequence's keys/values straight from the paged storage through its block table."""
    n = int(cache.seq_len(sid))
    table = torch.tensor([int(b) for b in cache.block_table(sid)], dtype=torch.long)
    pos = torch.arange(n)
    blocks, slots = table[pos // block_size], pos % block_size
    return cache.k_cache[blocks, slots], cache.v_cache[blocks, slots]


def run(sol, inputs):
    bs = inputs["block_size"]
    cache = sol.PagedKVCache(inputs["num_blocks"], bs, inputs["num_heads"], inputs["head_dim"], dtype=torch.float64)
    out = {"raised": [], "tables": [], "free": [], "lens": []}
    live, kp, qp, step = [], 0, 0, 0  # live: sequences whose append succeeded and that are not freed
    with torch.no_grad():
        for op in inputs["script"]:
            if op[0] == "append":
                _, sid, n = op
                k, v = inputs["k_new"][kp:kp + n].clone(), inputs["v_new"][kp:kp + n].clone()
                kp += n
                try:
                    cache.append(sid, k, v)
                    raised = False
                except RuntimeError:
                    raised = True
                out["raised"].append(raised)
                if not raised and sid not in live:
                    live.append(sid)
            elif op[0] == "free":
                if op[1] in live:
                    cache.free(op[1])
                    live.remove(op[1])
            else:
                q = inputs["q"][qp:qp + len(op[1])].clone()
                qp += len(op[1])
                keep = [i for i, s in enumerate(op[1]) if s in live]  # all of them unless an append wrongly raised
                sids, q = [op[1][i] for i in keep], q[keep]
                if sids:
                    phys = [_via_table(cache, s, bs) for s in sids]
                    got = [cache.gather(s) for s in sids]
                    out[f"k_via_table_{step}"] = torch.cat([p[0] for p in phys])
                    out[f"v_via_table_{step}"] = torch.cat([p[1] for p in phys])
                    out[f"k_gathered_{step}"] = torch.cat([g[0] for g in got])
                    out[f"v_gathered_{step}"] = torch.cat([g[1] for g in got])
                    out[f"attn_{step}"] = sol.decode_attention(cache, sids, q)
                step += 1
            out["tables"].append({str(s): [int(b) for b in cache.block_table(s)] for s in live})
            out["lens"].append({str(s): int(cache.seq_len(s)) for s in live})
            out["free"].append(int(cache.num_free_blocks()))
    return out
