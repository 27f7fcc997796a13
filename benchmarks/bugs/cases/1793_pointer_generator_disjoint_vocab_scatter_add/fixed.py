import torch
import torch.nn as nn


class SymbolIndex:
    """Maps characters to integer ids; ids 0-3 are reserved for special symbols."""

    SPECIALS = ["<pad>", "<s>", "</s>", "<unk>"]

    def __init__(self, symbols):
        self.id2sym = self.SPECIALS + sorted(set(symbols))
        self.sym2id = {s: i for i, s in enumerate(self.id2sym)}

    def __len__(self):
        return len(self.id2sym)

    def encode(self, word):
        return [self.sym2id.get(c, 3) for c in word]


class PointerGeneratorDecoderStep(nn.Module):
    def __init__(self, hidden_size, output_size):
        super().__init__()
        self.output_size = output_size
        self.generation = nn.Linear(hidden_size, output_size)
        self.gate = nn.Linear(hidden_size, 1)

    def forward(self, decoder_hidden, source_indices, source_attention_weights):
        """One decoding step of the pointer-generator.

        Args:
            decoder_hidden: decoder state, shape (batch_size, hidden_size).
            source_indices: symbol ids of the source strings, shape (batch_size, source_length).
            source_attention_weights: attention over source positions, shape (batch_size, source_length).

        Returns:
            log-probabilities over the output vocabulary, shape (batch_size, output_size).
        """
        generation_probs = torch.softmax(self.generation(decoder_hidden), dim=-1)
        ptr_dist = torch.zeros(decoder_hidden.size(0), self.output_size)
        ptr_dist.scatter_add_(1, source_indices, source_attention_weights)
        p_gen = torch.sigmoid(self.gate(decoder_hidden))
        return torch.log(p_gen * generation_probs + (1 - p_gen) * ptr_dist + 1e-9)


if __name__ == "__main__":
    torch.manual_seed(0)
    sources = ["xylophone", "quiz", "jazz"]
    targets = ["abc", "bad", "cab"]
    source_index = SymbolIndex("".join(sources) + "".join(targets))
    target_index = source_index
    length = max(len(s) for s in sources)
    source_ids = torch.tensor([source_index.encode(s.ljust(length, "z")) for s in sources])
    attention = torch.softmax(torch.randn(len(sources), length), dim=-1)
    step = PointerGeneratorDecoderStep(hidden_size=16, output_size=len(target_index))
    hidden = torch.randn(len(sources), 16)
    log_probs = step(hidden, source_ids, attention)
    print("output distribution:", tuple(log_probs.shape))
    gen = torch.softmax(step.generation(hidden), dim=-1)
    gate = torch.sigmoid(step.gate(hidden))
    for b in range(len(sources)):
        ptr = [0.0] * len(target_index)
        for j in range(length):
            ptr[source_ids[b, j].item()] += attention[b, j].item()
        for v in range(len(target_index)):
            expected = gate[b, 0].item() * gen[b, v].item() + (1 - gate[b, 0].item()) * ptr[v]
            assert abs(log_probs[b, v].exp().item() - 1e-9 - expected) < 1e-5
    print("ok")
