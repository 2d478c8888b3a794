//! Blobs in an S3-compatible bucket (AWS S3, SeaweedFS, MinIO, Ceph, R2…) through
//! object_store. Keys live under the URL's prefix; a missing object reads as `None`, and
//! deleting one is not an error, as in the local folder.
//!
//! Requests are bounded: 5 s to connect, 30 s a request, and no retry started after 15 s,
//! at most 3 (object_store's default would retry for three minutes while an API request
//! waits). One call can thus take about 45 s at worst.

use std::time::Duration;

use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path;
use object_store::{ClientOptions, ObjectStore as _, ObjectStoreExt as _, RetryConfig};

use crate::StorageError;

/// How to reach the bucket. Credentials not given here are taken as the AWS SDKs take them
/// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, an instance profile).
#[derive(Clone, Default)]
pub struct BucketSettings {
    /// `s3://bucket` or `s3://bucket/prefix`.
    pub url: String,
    /// The S3 API's address when it is not AWS (`http://127.0.0.1:8333`); path-style requests.
    pub endpoint: Option<String>,
    pub region: Option<String>,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
}

impl std::fmt::Debug for BucketSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The secret is never printed.
        f.debug_struct("BucketSettings")
            .field("url", &self.url)
            .field("endpoint", &self.endpoint)
            .field("region", &self.region)
            .field("access_key_id", &self.access_key_id)
            .finish_non_exhaustive()
    }
}

#[derive(Debug)]
pub struct Bucket {
    store: AmazonS3,
    name: String,
    /// The prefix every key is under, without slashes at either end; may be empty.
    prefix: String,
}

fn err(key: &str, e: object_store::Error) -> StorageError {
    StorageError::Bucket(format!("{key}: {e}"))
}

impl Bucket {
    pub fn new(settings: &BucketSettings) -> Result<Bucket, StorageError> {
        let bad = |why: &str| StorageError::Bucket(format!("'{}': {why}", settings.url));
        let rest = settings
            .url
            .strip_prefix("s3://")
            .ok_or_else(|| bad("must start with s3://"))?;
        let (name, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let prefix = prefix.trim_matches('/');
        if name.is_empty() {
            return Err(bad("names no bucket"));
        }
        if !prefix.is_empty() {
            super::key::valid(prefix).map_err(|_| bad("its prefix has an empty, . or .. part"))?;
        }
        // Keys given in the settings are the whole story; without them, the environment's
        // (and an instance profile) are used as the AWS tools use them.
        let base = if settings.access_key_id.is_some() {
            AmazonS3Builder::new()
        } else {
            AmazonS3Builder::from_env()
        };
        let mut builder = base
            .with_bucket_name(name)
            .with_client_options(
                ClientOptions::new()
                    .with_connect_timeout(Duration::from_secs(5))
                    .with_timeout(Duration::from_secs(30))
                    .with_allow_http(
                        settings
                            .endpoint
                            .as_deref()
                            .is_some_and(|e| e.starts_with("http://")),
                    ),
            )
            .with_retry(RetryConfig {
                max_retries: 3,
                retry_timeout: Duration::from_secs(15),
                ..RetryConfig::default()
            });
        if let Some(endpoint) = &settings.endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        if let Some(region) = &settings.region {
            builder = builder.with_region(region);
        }
        if let Some(id) = &settings.access_key_id {
            builder = builder.with_access_key_id(id);
        }
        if let Some(secret) = &settings.secret_access_key {
            builder = builder.with_secret_access_key(secret);
        }
        let store = builder
            .build()
            .map_err(|e| StorageError::Bucket(format!("'{}': {e}", settings.url)))?;
        Ok(Bucket {
            store,
            name: name.to_string(),
            prefix: prefix.to_string(),
        })
    }

    pub fn describe(&self) -> String {
        match self.prefix.as_str() {
            "" => format!("s3://{}", self.name),
            prefix => format!("s3://{}/{prefix}", self.name),
        }
    }

    fn location(&self, key: &str) -> Result<Path, StorageError> {
        let full = match self.prefix.as_str() {
            "" => key.to_string(),
            prefix => format!("{prefix}/{key}"),
        };
        Path::parse(&full)
            .map_err(|e| StorageError::Corrupt(format!("blob key '{key}' is not valid: {e}")))
    }

    /// Lists the `health/` folder: an error when the bucket is missing, the credentials are
    /// refused or the store does not answer. The error says which in a few words: it is shown
    /// by `/readyz` to anyone, and a store's own answer can carry request details (an AWS
    /// signature mismatch echoes the key id and the string signed). The whole error is logged.
    pub async fn check(&self) -> Result<(), StorageError> {
        let at = self.location("health")?;
        match self.store.list_with_delimiter(Some(&at)).await {
            Ok(_) => Ok(()),
            Err(e) => {
                tracing::warn!(bucket = %self.describe(), error = %e, "the bucket cannot be listed");
                let why = match e {
                    object_store::Error::NotFound { .. } => "the bucket does not exist",
                    object_store::Error::PermissionDenied { .. }
                    | object_store::Error::Unauthenticated { .. } => "access is refused",
                    _ => "it does not answer as an S3 store",
                };
                Err(StorageError::Bucket(format!("{}: {why}", self.describe())))
            }
        }
    }

    pub async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), StorageError> {
        self.store
            .put(&self.location(key)?, bytes.into())
            .await
            .map(|_| ())
            .map_err(|e| err(key, e))
    }

    pub async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StorageError> {
        match self.store.get(&self.location(key)?).await {
            Ok(got) => got
                .bytes()
                .await
                .map(|b| Some(b.to_vec()))
                .map_err(|e| err(key, e)),
            // A 404 is also what a bucket that is gone answers: a missing file is told
            // apart from a missing store, which must not read as "no such file".
            Err(object_store::Error::NotFound { .. }) => {
                self.check().await?;
                Ok(None)
            }
            Err(e) => Err(err(key, e)),
        }
    }

    /// The keys directly in `folder`, sorted.
    pub async fn list(&self, folder: &str) -> Result<Vec<String>, StorageError> {
        let listed = self
            .store
            .list_with_delimiter(Some(&self.location(folder)?))
            .await
            .map_err(|e| err(folder, e))?;
        let mut keys: Vec<String> = listed
            .objects
            .into_iter()
            .filter_map(|o| o.location.filename().map(|name| format!("{folder}/{name}")))
            .collect();
        keys.sort();
        Ok(keys)
    }

    pub async fn delete(&self, key: &str) -> Result<(), StorageError> {
        match self.store.delete(&self.location(key)?).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(err(key, e)),
        }
    }
}
