# expect: Wrong Answer
import torch


def focal_loss(logits, y, gamma, eps=1e-3):
    p = torch.softmax(logits, dim=1)
    p = p + eps  # no in-place op any more, but this is not the clamp the loss is defined with
    pt = p.gather(1, y[:, None]).squeeze(1)
    return (-(1 - pt) ** gamma * torch.log(pt)).mean()


def train(model, batches, lr, gamma):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for x, y in batches:
        opt.zero_grad()
        loss = focal_loss(model(x), y, gamma)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
