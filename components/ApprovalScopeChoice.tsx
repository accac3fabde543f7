// The wide "always" of an approval card: every command of the category (its pattern keys), a
// second, explicit and quieter choice beside the narrow default (this exact command).
export interface AlwaysCategoryProps {
  keys: string[];
  disabled: boolean;
  onClick: () => void;
}

export function AlwaysCategory({ keys, disabled, onClick }: AlwaysCategoryProps) {
  const list = keys.filter(Boolean).join(", ");
  return (
    <button
      type="button"
      class="btn btn-quiet"
      data-choice="always-pattern"
      disabled={disabled}
      title={`Every command matching ${list}, in every workspace, saved to config.yaml`}
      onClick={onClick}
    >
      Always allow every <code>{list}</code>
    </button>
  );
}
