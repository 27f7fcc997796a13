import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence


class Tokenizer:
    def __init__(self, base_vocab):
        self.vocab = {f"tok{i}": i for i in range(base_vocab)}

    def add_tokens(self, tokens):
        for tok in tokens:
            self.vocab.setdefault(tok, len(self.vocab))

    def convert_tokens_to_ids(self, tok):
        return self.vocab[tok]

    def __len__(self):
        return len(self.vocab)


class VisionLanguageScorer(nn.Module):
    def __init__(self, vocab_size, hidden, num_answers):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.head = nn.Linear(hidden, num_answers)

    def forward(self, input_ids, attention_mask):
        embeds = self.embed_tokens(input_ids)
        mask = attention_mask.unsqueeze(-1).to(embeds.dtype)
        pooled = (embeds * mask).sum(1) / mask.sum(1)
        return self.head(pooled)


def batch_prompts(prompts, pad_id):
    input_ids = pad_sequence(prompts, batch_first=True, padding_value=pad_id)
    lengths = torch.tensor([len(p) for p in prompts])
    attention_mask = (torch.arange(input_ids.size(1))[None, :] < lengths[:, None]).long()
    return input_ids, attention_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    tokenizer = Tokenizer(base_vocab=32)
    tokenizer.add_tokens(["<im_patch>", "<im_start>", "<im_end>"])
    model = VisionLanguageScorer(vocab_size=len(tokenizer), hidden=8, num_answers=4).eval()

    # batch inference: prompts differ in length; pad with a token the embedding has (masked out below)
    pad_id = tokenizer.convert_tokens_to_ids("tok0")
    prompts = [torch.randint(0, 35, (n,)) for n in (5, 3, 7)]
    input_ids, attention_mask = batch_prompts(prompts, pad_id)
    with torch.no_grad():
        scores = model(input_ids, attention_mask)
        for b, prompt in enumerate(prompts):
            ref = model.head(model.embed_tokens.weight[prompt].mean(0))
            assert torch.allclose(scores[b], ref, atol=1e-6)
    print("ok")
