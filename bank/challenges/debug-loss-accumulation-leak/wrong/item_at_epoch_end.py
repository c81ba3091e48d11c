# expect: Wrong Answer
import torch


def train(model, batches, criterion, lr, epochs):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    step_losses, epoch_losses = [], []
    for _ in range(epochs):
        total = 0.0
        for x, y in batches:
            opt.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            opt.step()
            total += loss  # the running sum chains every step's graph until the epoch ends
            step_losses.append(loss.item())
        epoch_losses.append((total / len(batches)).item())
    return {"step_losses": step_losses, "epoch_losses": epoch_losses}
