import torch
import torch.nn as nn
import torch.nn.functional as F


class PieceTokenizer:
    def __init__(self, pieces):
        self.pieces = list(pieces)

    def __len__(self):
        return len(self.pieces)

    def decode(self, ids):
        return "".join(self.pieces[i] if i < len(self.pieces) else "" for i in ids)


class StopStringCriteria:
    def __init__(self, tokenizer, stop_strings):
        self.stop_strings = [s[::-1] for s in stop_strings]
        self.maximum_token_len = max(len(s) for s in stop_strings)
        self.embedding_vec = self.clean_and_embed_tokens(tokenizer)

    def clean_and_embed_tokens(self, tokenizer):
        width = max(len(p) for p in tokenizer.pieces)
        vec = torch.full((len(tokenizer), width + 1), -1, dtype=torch.long)
        for token_idx, piece in enumerate(tokenizer.pieces):
            codes = [ord(c) for c in reversed(piece)]
            vec[token_idx, : len(codes)] = torch.tensor(codes, dtype=torch.long)
            vec[token_idx, -1] = len(piece)
        return vec

    def __call__(self, input_ids, scores):
        input_ids = input_ids[:, -self.maximum_token_len :]
        flipped_ids = torch.flip(input_ids, (1,))
        embedded = F.embedding(flipped_ids, self.embedding_vec)
        chars = embedded[..., :-1].flatten(1)
        is_done = torch.zeros(input_ids.shape[0], dtype=torch.bool)
        for row in range(chars.shape[0]):
            tail = "".join(chr(c) for c in chars[row].tolist() if c >= 0)
            is_done[row] = any(tail.startswith(s) for s in self.stop_strings)
        return is_done


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids):
        out, _ = self.rnn(self.embed(input_ids))
        return self.lm_head(out[:, -1])


@torch.no_grad()
def generate(model, input_ids, stopping_criteria, max_new_tokens, generator):
    finished = torch.zeros(input_ids.shape[0], dtype=torch.bool)
    for _ in range(max_new_tokens):
        scores = model(input_ids)
        next_tokens = torch.multinomial(scores.softmax(-1), 1, generator=generator)
        input_ids = torch.cat([input_ids, next_tokens], dim=1)
        finished |= stopping_criteria(input_ids, scores)
        if finished.all():
            break
    return input_ids, finished


if __name__ == "__main__":
    torch.manual_seed(0)
    tokenizer = PieceTokenizer(["<s>", "a", "b", "c", "d", "e", "en", "end", "st", "op", " ", ".", "!"])
    model_vocab_size = (len(tokenizer) + 7) // 8 * 8
    model = TinyCausalLM(model_vocab_size, 16)
    criteria = StopStringCriteria(tokenizer, ["end", "stop"])
    prompts = torch.tensor([[0, 1, 10], [0, 2, 10], [0, 3, 10], [0, 4, 10]])
    out, finished = generate(model, prompts, criteria, 12, torch.Generator().manual_seed(1))
    for row, done in zip(out.tolist(), finished.tolist()):
        print(repr(tokenizer.decode(row)), done)
