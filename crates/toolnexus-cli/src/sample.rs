//! The built-in sample of `toolnexus elicit` with no input: a form with every kind of field,
//! then a URL to consent to.

/// A form asking for one field of every kind an elicitation schema has.
pub const FORM: &str = r#"{
  "mode": "form",
  "message": "Plan your stay: this sample shows every kind of field a server can ask for.",
  "requestedSchema": {
    "type": "object",
    "properties": {
      "name": {"type": "string", "title": "Full name", "description": "As on your booking", "minLength": 2, "maxLength": 60},
      "email": {"type": "string", "title": "Email", "format": "email"},
      "website": {"type": "string", "title": "Website", "format": "uri"},
      "arrival": {"type": "string", "title": "Arrival date", "format": "date"},
      "callBack": {"type": "string", "title": "Call me back at", "format": "date-time"},
      "guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 9, "default": 2},
      "budget": {"type": "number", "title": "Budget per night (EUR)", "minimum": 0, "maximum": 10000},
      "breakfast": {"type": "boolean", "title": "Breakfast included", "default": false},
      "room": {"type": "string", "title": "Room", "oneOf": [
        {"const": "single", "title": "Single room"},
        {"const": "double", "title": "Double room"},
        {"const": "suite", "title": "Suite"}], "default": "double"},
      "floor": {"type": "string", "title": "Floor", "enum": ["low", "high"]},
      "extras": {"type": "array", "title": "Extras", "maxItems": 2, "items": {"anyOf": [
        {"const": "parking", "title": "Parking"},
        {"const": "late", "title": "Late checkout"},
        {"const": "crib", "title": "Baby crib"}]}},
      "doorCode": {"type": "string", "title": "Door code PIN", "description": "A secret: a server must not ask for this in a form"}
    },
    "required": ["name", "email", "guests"]
  }
}"#;

/// A URL-mode elicitation.
pub const URL: &str = r#"{
  "mode": "url",
  "message": "Sign in to the booking service to confirm the stay.",
  "url": "https://auth.example.com/oauth/authorize?client_id=toolnexus-sample&state=stay-42",
  "elicitationId": "sample-url-1"
}"#;
