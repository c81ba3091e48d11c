# expect: Wrong Answer
import torch


def beam_search(log_start, log_trans, eos, beam_size, max_len, alpha=0.0, n_best=None):
    V = log_start.numel()
    n_best = beam_size if n_best is None else n_best
    lp, tok = torch.topk(log_start, min(beam_size, V))
    seqs = [[t] for t in tok.tolist()]
    for _ in range(max_len - 1):
        # EOS is treated like any token: finished hypotheses keep growing past it
        last = torch.tensor([s[-1] for s in seqs])
        cand = (lp[:, None] + log_trans[last]).flatten()
        lp, idx = torch.topk(cand, min(beam_size, cand.numel()))
        seqs = [seqs[i // V] + [i % V] for i in idx.tolist()]
    lengths = torch.tensor([len(s) for s in seqs], dtype=lp.dtype)
    scores = lp / lengths ** alpha
    order = torch.argsort(scores, descending=True, stable=True)[:n_best].tolist()
    return [seqs[i] for i in order], scores[order], lp[order]
