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
            value = loss.detach()  # no graph any more, but still a tensor, not the float that was asked for
            total += value
            step_losses.append(value)
        epoch_losses.append(total / len(batches))
    return {"step_losses": step_losses, "epoch_losses": epoch_losses}
