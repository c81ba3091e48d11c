# expect: Wrong Answer
import math


def train_step(model, optimizer, loss_fn, x, y, micro_batch_size):
    optimizer.zero_grad()
    accum_steps = math.ceil(x.shape[0] / micro_batch_size)
    total = 0.0
    for xb, yb in zip(x.split(micro_batch_size), y.split(micro_batch_size)):
        loss = loss_fn(model(xb), yb) / accum_steps  # right only when every micro-batch has the same size
        loss.backward()
        total += loss.item()
    optimizer.step()
    return total
