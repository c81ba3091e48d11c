# expect: Wrong Answer
import torch


def cosine_similarity_matrix(a, b, eps=1e-8):
    a_norm = torch.linalg.vector_norm(a, dim=1, keepdim=True) + eps  # added, not clamped: biased for short vectors
    b_norm = torch.linalg.vector_norm(b, dim=1, keepdim=True) + eps
    return (a / a_norm) @ (b / b_norm).T  # normalise first: no overflow in the dot products
