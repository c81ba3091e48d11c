# expect: Wrong Answer
import torch


def cosine_similarity_matrix(a, b, eps=1e-8):
    na = torch.linalg.vector_norm(a, dim=1, keepdim=True)
    nb = torch.linalg.vector_norm(b, dim=1, keepdim=True)
    return (a / na) @ (b / nb).T  # 0 / 0 = NaN for zero vectors
