import torch
from jaxtyping import Int
from torch.utils.data import Dataset

STEP_TAG = "ки"
IGNORE = -100


class WordTokenizer:
    def __init__(self):
        self.vocab = {"<pad>": 0, STEP_TAG: 1, "+": 2, "-": 3}

    def __call__(self, text: str) -> list[int]:
        return [self.vocab.setdefault(w, len(self.vocab)) for w in text.split()]


class ProcessRewardDataset(Dataset):
    """Math-Shepherd style samples: every reasoning step ends with the step tag."""

    def __init__(self, rows, tokenizer):
        self.rows = rows
        self.tok = tokenizer
        self.placeholder_token_id = tokenizer.vocab[STEP_TAG]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i) -> tuple[Int[torch.Tensor, "seq"], Int[torch.Tensor, "seq"]]:
        row = self.rows[i]
        prompt_ids = self.tok(row["prompt"])
        input_ids = torch.tensor(prompt_ids + self.tok(row["response"]))
        label_tokens = [self.tok.vocab[v] for v in row["step_labels"]]
        labels = torch.full_like(input_ids, IGNORE)
        # only step tags inside the response carry a step label
        is_step = (input_ids == self.placeholder_token_id) & (torch.arange(input_ids.numel()) >= len(prompt_ids))
        assert int(is_step.sum()) == len(label_tokens), "one label per step tag"
        labels[is_step] = torch.tensor(label_tokens)
        return input_ids, labels


if __name__ == "__main__":
    rows = [
        {
            "prompt": f"Each step below ends with {STEP_TAG} . Compute 3 * 4 + 5",
            "response": f"3 * 4 = 12 {STEP_TAG} 12 + 5 = 17 {STEP_TAG} answer 17 {STEP_TAG}",
            "step_labels": ["+", "+", "+"],
        }
    ]
    tok = WordTokenizer()
    ds = ProcessRewardDataset(rows, tok)
    ids, labels = ds[0]
    n_prompt = len(rows[0]["prompt"].split())
    k = 0
    for pos, (t, l) in enumerate(zip(ids.tolist(), labels.tolist())):
        if pos >= n_prompt and t == tok.vocab[STEP_TAG]:
            assert l == tok.vocab[rows[0]["step_labels"][k]]
            k += 1
        else:
            assert l == IGNORE
    assert k == 3
    print("ok")
