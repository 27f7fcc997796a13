import torch
import torch.nn as nn


def one_hot(labels, num_classes):
    canvas = torch.zeros(*labels.shape, num_classes, dtype=torch.int64)
    index = labels.unsqueeze(-1)
    src = torch.ones((1,) * index.dim(), dtype=torch.int64)
    return canvas.scatter_add(-1, index, src)


def smoothed_targets(labels, num_classes, eps=0.1):
    hard = one_hot(labels, num_classes).float()
    return hard * (1.0 - eps) + eps / num_classes


def train_step(model, optimizer, tokens, labels, num_tags):
    logits = model(tokens)
    targets = smoothed_targets(labels, num_tags)
    loss = -(targets * logits.log_softmax(dim=-1)).sum(dim=-1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    tagger = nn.Sequential(nn.Embedding(100, 32), nn.Linear(32, 9))
    opt = torch.optim.SGD(tagger.parameters(), lr=0.1)
    tokens = torch.randint(0, 100, (4, 10))
    tags = torch.randint(0, 9, (4, 10))
    print("loss:", train_step(tagger, opt, tokens, tags, num_tags=9))
