from django import forms
from django.contrib.auth import get_user_model

from characters.models import Character

from .restore import MAX_BYTES, ImportRefused, Restored, read_document, restore_table


class RestoreForm(forms.Form):
    """The upload: read and restored as a preview (rolled back), nothing kept yet."""

    export = forms.FileField(
        label="Table export (.json)",
        help_text="The file “Download the table export” gives, on this server or another.",
    )

    def __init__(self, *args, gm, **kwargs):
        super().__init__(*args, **kwargs)
        self.gm = gm

    def clean_export(self):
        upload = self.cleaned_data["export"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB: not a table export."
            )
        raw = upload.read()
        try:
            document = read_document(raw)
            self.preview: Restored = restore_table(document, gm=self.gm, preview=True)
        except ImportRefused as error:
            raise forms.ValidationError(str(error)) from None
        self.text = raw.decode("utf-8-sig")
        return upload


class HandOverForm(forms.Form):
    character = forms.ModelChoiceField(queryset=Character.objects.none(), label="Character")
    player = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(), label="Player", to_field_name="username"
    )

    def __init__(self, *args, table, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].queryset = Character.objects.filter(
            table=table, owner=None
        ).select_related("playbook")
        self.fields["player"].queryset = (
            get_user_model()
            .objects.filter(memberships__table=table, memberships__role="player")
            .order_by("username")
        )
        self.fields["player"].label_from_instance = lambda user: user.username
