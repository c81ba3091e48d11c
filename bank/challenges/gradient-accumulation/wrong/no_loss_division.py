# expect: Wrong Answer
def train_step(model, optimizer, loss_fn, x, y, micro_batch_size):
    optimizer.zero_grad()
    total = 0.0
    for xb, yb in zip(x.split(micro_batch_size), y.split(micro_batch_size)):
        loss = loss_fn(model(xb), yb)  # summed over micro-batches: the gradient is accum_steps times too big
        loss.backward()
        total += loss.item() * xb.shape[0] / x.shape[0]
    optimizer.step()
    return total
