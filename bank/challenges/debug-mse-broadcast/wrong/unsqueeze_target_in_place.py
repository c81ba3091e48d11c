# expect: Wrong Answer
import torch
import torch.nn.functional as F


def train(model, batches, lr, epochs):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(epochs):
        for x, y in batches:
            y.unsqueeze_(1)  # right in epoch 1; the batch tensors keep the new dim: (n, 1, 1) in epoch 2
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses


def evaluate(model, x, y):
    with torch.no_grad():
        return F.mse_loss(model(x), y.unsqueeze(1)).item()
