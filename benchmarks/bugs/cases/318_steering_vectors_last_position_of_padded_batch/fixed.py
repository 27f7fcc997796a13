import torch
import torch.nn as nn


class TinyDecoder(nn.Module):
    def __init__(self, vocab=60, hidden=32, layers=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden, padding_idx=0)
        self.blocks = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(layers))

    def forward(self, input_ids):
        # input_ids: [B, T] right-padded with 0
        h = self.embed(input_ids)                                   # [B, T, H]
        hidden_states = [h]
        for block in self.blocks:
            h = h + torch.tanh(block(h)).cumsum(dim=1) / torch.arange(1, h.size(1) + 1).view(1, -1, 1)
            hidden_states.append(h)
        return hidden_states                                        # layers + 1 x [B, T, H]


def pad_batch(seqs):
    # seqs: list of 1-D LongTensors of different lengths -> ids [B, T], mask [B, T]
    T = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), T, dtype=torch.long)
    mask = torch.zeros(len(seqs), T, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, :len(s)] = s
        mask[i, :len(s)] = 1
    return ids, mask


def batched_get_hiddens(model, seqs, layer):
    ids, mask = pad_batch(seqs)
    with torch.no_grad():
        hidden_states = model(ids)
    h = hidden_states[layer]                                        # [B, T, H]
    last = mask.sum(dim=1) - 1                                      # [B] index of last real token
    return h.gather(1, last.view(-1, 1, 1).expand(-1, 1, h.size(-1))).squeeze(1)  # [B, H]


def main():
    torch.manual_seed(0)
    model = TinyDecoder()
    seqs = [torch.randint(1, 60, (n,)) for n in (9, 4, 6, 9)]
    batched = batched_get_hiddens(model, seqs, layer=2)
    single = torch.stack([batched_get_hiddens(model, [s], layer=2)[0] for s in seqs])
    assert torch.allclose(batched, single, atol=1e-6)
    ids, _ = pad_batch(seqs)
    with torch.no_grad():
        h = model(ids)[2]
    for i, s in enumerate(seqs):
        for d in range(h.size(-1)):
            assert batched[i, d] == h[i, len(s) - 1, d]
    print("ok")


if __name__ == "__main__":
    main()
