# expect: Wrong Answer
import torch


def cosine_similarity_matrix(a, b, eps=1e-8):
    # the old semantics: max(|a| |b|, eps) instead of max(|a|, eps) * max(|b|, eps)
    na = torch.linalg.vector_norm(a, dim=1, keepdim=True)
    nb = torch.linalg.vector_norm(b, dim=1, keepdim=True)
    return (a / na.clamp_min(1e-300)) @ (b / nb.clamp_min(1e-300)).T * (na * nb.T) / (na * nb.T).clamp_min(eps)
