import torch
import torch.nn as nn


class PointerGeneratorDecoder(nn.Module):
    """Single-step decoder of a pointer-generator seq2seq model (shared source/target vocabulary)."""

    def __init__(self, vocab_size: int, hidden_size: int):
        super().__init__()
        self.output_size = vocab_size
        self.target_embeddings = nn.Embedding(vocab_size, hidden_size)
        self.classifier = nn.Linear(2 * hidden_size, vocab_size)
        self.generation_probability = nn.Linear(3 * hidden_size, 1)

    @property
    def device(self):
        return self.classifier.weight.device

    def decode_step(self, symbol, hidden, source_indices, source_enc, source_mask):
        """Predicts the distribution of the next symbol.

        Args:
            symbol (torch.Tensor): previous symbols, B x 1.
            hidden (torch.Tensor): decoder state, B x 1 x hidden_size.
            source_indices (torch.Tensor): source symbols, B x seq_len.
            source_enc (torch.Tensor): encoded source, B x seq_len x hidden_size.
            source_mask (torch.Tensor): True on real source symbols, B x seq_len.

        Returns:
            torch.Tensor: log-probabilities, B x 1 x output_size.
        """
        embedded = self.target_embeddings(symbol)
        attention_scores = torch.bmm(hidden, source_enc.transpose(1, 2))
        attention_scores = attention_scores.masked_fill(~source_mask.unsqueeze(1), float("-inf"))
        attention_weights = attention_scores.softmax(dim=2)
        context = torch.bmm(attention_weights, source_enc)
        output_probs = self.classifier(torch.cat([hidden, context], dim=2)).softmax(dim=2)
        ptr_probs = torch.zeros(
            symbol.size(0), self.output_size, device=self.device, dtype=attention_weights.dtype
        ).unsqueeze(1)
        # the "pointer" distribution: attention mass of every source position lands on its symbol
        ptr_probs.scatter_add_(2, source_indices.unsqueeze(1), attention_weights)
        gen_probs = torch.sigmoid(self.generation_probability(torch.cat([context, hidden, embedded], dim=2)))
        scores = gen_probs * output_probs + (1 - gen_probs) * ptr_probs
        return torch.log(scores)


def build_batch(vocab_size, hidden_size, dtype):
    g = torch.Generator().manual_seed(0)
    source_indices = torch.randint(3, vocab_size, (2, 6), generator=g)
    source_indices[0, 4] = source_indices[0, 1]  # repeated source symbol
    source_mask = torch.ones(2, 6, dtype=torch.bool)
    source_mask[1, 4:] = False
    source_enc = torch.randn(2, 6, hidden_size, generator=g).to(dtype)
    hidden = torch.randn(2, 1, hidden_size, generator=g).to(dtype)
    symbol = torch.tensor([[1], [1]])
    return symbol, hidden, source_indices, source_enc, source_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer_config = {"precision": "bf16-true", "vocab_size": 20, "hidden_size": 8}
    dtype = torch.bfloat16 if trainer_config["precision"].startswith("bf16") else torch.float32
    decoder = PointerGeneratorDecoder(trainer_config["vocab_size"], trainer_config["hidden_size"]).to(dtype)
    batch = build_batch(trainer_config["vocab_size"], trainer_config["hidden_size"], dtype)
    log_probs = decoder.decode_step(*batch)

    symbol, hidden, source_indices, source_enc, source_mask = batch
    W = {k: v.float() for k, v in decoder.state_dict().items()}
    with torch.no_grad():
        for b in range(symbol.size(0)):
            h, enc = hidden[b, 0].float(), source_enc[b].float()
            valid = [s for s in range(enc.size(0)) if bool(source_mask[b, s])]
            att = torch.softmax(torch.stack([h @ enc[s] for s in valid]), dim=0)
            ctx = sum(a * enc[s] for a, s in zip(att, valid))
            out = torch.softmax(W["classifier.weight"] @ torch.cat([h, ctx]) + W["classifier.bias"], dim=0)
            emb = W["target_embeddings.weight"][int(symbol[b, 0])]
            gen = torch.sigmoid(
                W["generation_probability.weight"] @ torch.cat([ctx, h, emb]) + W["generation_probability.bias"]
            )
            ptr = [0.0] * trainer_config["vocab_size"]
            for a, s in zip(att.tolist(), valid):
                ptr[int(source_indices[b, s])] += a
            ref = gen * out + (1 - gen) * torch.tensor(ptr)
            assert torch.allclose(log_probs[b, 0].float().exp(), ref, atol=2e-2), b
    assert log_probs.dtype == torch.bfloat16
    print("ok")
