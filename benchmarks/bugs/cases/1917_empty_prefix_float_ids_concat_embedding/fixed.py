import torch
import torch.nn as nn


class WordTokenizer:
    def __init__(self, vocab):
        self.vocab = {w: i for i, w in enumerate(vocab)}
        self.unk_token_id = self.vocab["<unk>"]

    def __call__(self, text, return_tensors="pt"):
        ids = [self.vocab.get(w, self.unk_token_id) for w in text.split()]
        # an empty text must still give int64 ids, not torch.tensor([[]])'s default float32
        return {
            "input_ids": torch.tensor([ids], dtype=torch.long),
            "attention_mask": torch.tensor([[1] * len(ids)], dtype=torch.long),
        }


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids):
        hidden, _ = self.rnn(self.embed_tokens(input_ids))
        return self.lm_head(hidden)

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens):
        for _ in range(max_new_tokens):
            next_token = self(input_ids)[:, -1].argmax(dim=-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=1)
        return input_ids


def build_prompt_ids(tokenizer, system_prefix, user_prompt):
    prefix_ids = tokenizer(system_prefix)["input_ids"]
    prompt_ids = tokenizer(user_prompt)["input_ids"]
    return torch.cat([prefix_ids, prompt_ids], dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = ["<unk>", "you", "are", "a", "helpful", "assistant", "what", "is", "the", "capital", "of", "france", "?"]
    tokenizer = WordTokenizer(vocab)
    model = TinyCausalLM(len(vocab), 16).eval()
    for system_prefix in ["you are a helpful assistant", ""]:
        input_ids = build_prompt_ids(tokenizer, system_prefix, "what is the capital of france ?")
        assert input_ids.dtype == torch.long
        output = model.generate(input_ids, max_new_tokens=3)
        # reference: plain Python token list, one forward per new token
        tokens = [tokenizer.vocab[w] for w in (system_prefix + " what is the capital of france ?").split()]
        with torch.no_grad():
            for _ in range(3):
                logits = model(torch.tensor([tokens], dtype=torch.long))[0, -1]
                tokens.append(max(range(len(vocab)), key=lambda i: logits[i].item()))
        assert output.tolist() == [tokens]
    print("ok")
