import torch
import torch.nn as nn
import torch.nn.functional as F


class MoCo(nn.Module):
    def __init__(self, base_encoder, dim, batch_size, K=24, m=0.999, T=0.07):
        super().__init__()
        self.K, self.m, self.T, self.batch_size = K, m, T, batch_size
        self.encoder_q = base_encoder()
        self.encoder_k = base_encoder()
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data.copy_(param_q.data)
            param_k.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(K, dim), dim=1))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        slots = (ptr + torch.arange(batch_size)) % self.K
        self.queue.index_copy_(0, slots, keys)
        self.queue_ptr[0] = (ptr + batch_size) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", q, k).unsqueeze(-1)
        l_neg = torch.einsum("nc,kc->nk", q, self.queue.clone().detach())
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return logits, labels


def train_epoch(model, images, batch_size, optimizer):
    losses = []
    for start in range(0, len(images), batch_size):
        batch = images[start:start + batch_size]
        logits, labels = model(batch + 0.1 * torch.randn_like(batch), batch + 0.1 * torch.randn_like(batch))
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MoCo(lambda: nn.Sequential(nn.Flatten(), nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 6)), dim=6, batch_size=8)
    optimizer = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03)
    images = torch.randn(21, 3, 2, 2)
    initial_queue = model.queue.clone()
    enqueued = []
    enqueue = model._dequeue_and_enqueue
    model._dequeue_and_enqueue = lambda keys: (enqueued.append(keys.clone()), enqueue(keys))
    losses = train_epoch(model, images, batch_size=8, optimizer=optimizer)
    print("losses:", [round(v, 4) for v in losses], "queue pointer:", int(model.queue_ptr))
    rows, ptr = [row for row in initial_queue], 0
    for keys in enqueued:
        for i in range(keys.shape[0]):
            rows[(ptr + i) % 24] = keys[i]
        ptr = (ptr + keys.shape[0]) % 24
    assert ptr == int(model.queue_ptr) == 21
    assert torch.equal(model.queue, torch.stack(rows))
    print("ok")
