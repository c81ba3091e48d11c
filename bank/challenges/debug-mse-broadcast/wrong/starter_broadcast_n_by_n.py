# expect: Wrong Answer
import torch
import torch.nn.functional as F


def train(model, batches, lr, epochs):
    """`epochs` passes over `batches` (a list of (x, y) pairs), one SGD step per batch.

    The model maps x (n, d) to predictions (n, 1); the targets y have shape (n,).
    Returns the training loss of every step, as Python floats.
    """
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(epochs):
        for x, y in batches:
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses


def evaluate(model, x, y):
    """Mean squared error of the model on (x, y), as a Python float."""
    with torch.no_grad():
        return F.mse_loss(model(x), y).item()
